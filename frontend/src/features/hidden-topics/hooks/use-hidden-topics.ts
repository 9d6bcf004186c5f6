import { EXCLUDE_MAX, type ExcludedTopics, formatExclude, parseExclude } from '@hunktube/shared';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { listKeys } from '@/api/lists/keys';
import { videoKeys } from '@/api/videos/keys';
import { ApiError } from '@/lib/api/client';
import { GUEST_HIDDEN_KEY, guestHiddenQueryOptions, NO_TOPICS, setGuestHidden } from '@/lib/hidden-topics';
import { useSessionUser } from '@/lib/session';
import { memberHiddenKey, memberHiddenQueryOptions, putHiddenTopics } from '../api/hidden-topics';
import { isHidden, MEMBER_HIDDEN_MAX, TOPIC_FIELD, TOPIC_KINDS, topicCount, type TopicKind, unionOf, withoutTopic, withTopic } from '../utils/topics';

export interface HiddenTopicsState {
  /** What is hidden now: the member's account's list, or this browser's for a guest. */
  topics: ExcludedTopics;
  /** Kept with the member's account (else in this browser's cookie). */
  isMember: boolean;
  /** Who is signed in is known, and a member's list has been read: the controls may change it. */
  ready: boolean;
  /** A member's list could not be read; `retry` reads it again. */
  loadFailed: boolean;
  retry: () => void;
  isHidden: (kind: TopicKind, id: string) => boolean;
  hide: (kind: TopicKind, id: string) => void;
  unhide: (kind: TopicKind, id: string) => void;
  /** Unhides everything. */
  clear: () => void;
  /** The list this browser keeps (a guest's; for a member, what they hid before logging in here). */
  browserTopics: ExcludedTopics;
  /** A member: adds this browser's list to their account's, then forgets it here. */
  adoptBrowserTopics: () => void;
  /** Why the last change was not made (a limit, the API's answer); null when it was. */
  error: string | null;
  saving: boolean;
}

const SAVE_KEY = ['hidden-topics', 'save'] as const;

const PLURAL: Record<TopicKind, string> = { category: 'categories', performer: 'performers', tag: 'tags' };

interface Save {
  userId: string;
  topics: ExcludedTopics;
  /** After the API has stored it. */
  then?: () => void;
}

/**
 * A member changed their list: what the API now leaves out of their reads changed too, so the listings, related
 * rows and Continue watching are read again (the ones on screen at once, the others when next shown).
 */
function readAgain(queryClient: QueryClient, userId: string): void {
  for (const queryKey of [videoKeys.lists, videoKeys.related, listKeys.continueWatching(userId)]) {
    void queryClient.invalidateQueries({ queryKey });
  }
}

/**
 * The visitor's hidden topics (docs/decisions.md › "Hidden topics") and the ways to change them: a member's in
 * their account (GET/PUT /api/me/hidden; the change shows at once and is sent after, one PUT at a time), a
 * guest's in this browser's cookie (lib/hidden-topics.ts). The reads that leave them out follow by themselves:
 * a guest's carry the list in their query keys, a member's are read again after each change.
 */
export function useHiddenTopics(): HiddenTopicsState {
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const userId = user?.id ?? null;
  const member = useQuery({ ...memberHiddenQueryOptions(userId ?? ''), enabled: userId !== null });
  const guestValue = useQuery(guestHiddenQueryOptions()).data;
  const browserTopics = parseExclude(guestValue) ?? NO_TOPICS;
  const [limit, setLimit] = useState<string | null>(null);

  const save = useMutation({
    mutationKey: SAVE_KEY,
    // One PUT at a time, in the order made: each carries the whole list as it was then.
    scope: { id: 'hidden-topics' },
    mutationFn: ({ topics }: Save) => putHiddenTopics(topics),
    onSuccess: (stored, { userId: id, then }) => {
      // The last of several changes in a row says what is stored; an earlier answer would undo the later ones on screen.
      if (queryClient.isMutating({ mutationKey: SAVE_KEY }) <= 1) queryClient.setQueryData(memberHiddenKey(id), stored);
      then?.();
    },
    onError: (error, { userId: id }) => {
      console.error('Error saving the hidden topics', error);
      void queryClient.invalidateQueries({ queryKey: memberHiddenKey(id) });
    },
    onSettled: (_stored, _error, { userId: id }) => readAgain(queryClient, id),
  });

  const change = async (next: (current: ExcludedTopics) => ExcludedTopics, then?: () => void) => {
    setLimit(null);
    save.reset();
    if (userId !== null) {
      const key = memberHiddenKey(userId);
      await queryClient.cancelQueries({ queryKey: key });
      const current = queryClient.getQueryData<ExcludedTopics>(key);
      if (!current) return;
      const topics = next(current);
      const full = TOPIC_KINDS.find((kind) => topics[TOPIC_FIELD[kind]].length > MEMBER_HIDDEN_MAX);
      if (full) return setLimit(`You can hide at most ${MEMBER_HIDDEN_MAX} ${PLURAL[full]}.`);
      queryClient.setQueryData(key, topics);
      save.mutate({ userId, topics, then });
    } else if (user === null) {
      const topics = next(parseExclude(queryClient.getQueryData<string>(GUEST_HIDDEN_KEY) ?? '') ?? NO_TOPICS);
      if (topicCount(topics) > EXCLUDE_MAX) {
        return setLimit(`This browser keeps at most ${EXCLUDE_MAX} hidden topics. Unhide some first, or log in to hide up to ${MEMBER_HIDDEN_MAX} of each kind.`);
      }
      setGuestHidden(queryClient, formatExclude(topics));
      then?.();
    }
  };

  const topics = userId !== null ? (member.data ?? NO_TOPICS) : browserTopics;
  return {
    topics,
    isMember: userId !== null,
    ready: user === null || member.isSuccess,
    loadFailed: member.isError,
    retry: () => void member.refetch(),
    isHidden: (kind, id) => isHidden(topics, kind, id),
    hide: (kind, id) => void change((current) => withTopic(current, kind, id)),
    unhide: (kind, id) => void change((current) => withoutTopic(current, kind, id)),
    clear: () => void change(() => NO_TOPICS),
    browserTopics,
    adoptBrowserTopics: () => void change((current) => unionOf(current, browserTopics), () => setGuestHidden(queryClient, '')),
    error: limit ?? (save.error ? saveErrorText(save.error) : null),
    saving: save.isPending,
  };
}

/** The API's reason where it gave one ("Unknown category: x"), else a plain sentence. */
function saveErrorText(error: Error): string {
  const reason = error instanceof ApiError && error.statusCode < 500 ? error.serverError : undefined;
  return reason ? `Your hidden topics were not saved: ${reason}` : 'Your hidden topics could not be saved. Please try again.';
}
