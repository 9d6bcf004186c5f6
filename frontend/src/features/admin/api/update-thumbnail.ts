import { useMutation } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { ThumbnailUrl } from '@/lib/api/types';

export interface UpdateThumbnailInput {
  file: File;
  /** The thumbnail URL field of the video: the file it names is replaced. */
  uploadPath: string;
}

/**
 * POST /api/admin/update-thumbnail as multipart `{uploadPath, file}`. Resolves with `{url}`; rejects with an
 * ApiError for a non-2xx answer and with the fetch error (a TypeError) when no answer came.
 */
export async function updateThumbnail({ file, uploadPath }: UpdateThumbnailInput): Promise<ThumbnailUrl> {
  const answer: ThumbnailUrl | undefined = await ok(
    api.POST('/api/admin/update-thumbnail', {
      // The document types the file as binary text; it goes as a File in a multipart body.
      body: { uploadPath, file: file as unknown as string },
      bodySerializer: ({ uploadPath: path }) => {
        const form = new FormData();
        form.append('uploadPath', path);
        // The file goes last: multer then has the text field before it reads the bytes.
        form.append('file', file, file.name);
        return form;
      },
    }),
  );
  return answer ?? { url: uploadPath };
}

/** The file keeps its URL, so nothing cached changes; the panel busts the browser's copy of the image itself. */
export const useUpdateThumbnail = () => useMutation({ mutationFn: updateThumbnail });
