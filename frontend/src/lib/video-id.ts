/** A video's id as its pages' addresses carry it: a whole number from 1 that fits the database's integer. */
const VIDEO_ID = /^[1-9]\d{0,9}$/;

export const isVideoId = (id: string | null | undefined): id is string => !!id && VIDEO_ID.test(id) && Number(id) <= 2_147_483_647;
