import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, apiErrorFrom, apiUrl } from '@/lib/api/client';
import type { UploadAccepted } from '@/lib/api/types';
import { jobsQueryKey } from './get-jobs';

/** What the upload form sends: the file and the text fields of `UploadVideoDto`. */
export interface UploadVideoInput {
  file: File;
  title: string;
  atg_title?: string;
  jtg_title?: string;
  featured?: number;
  /** Category ids. */
  categories?: string[];
  /** Performer ids. */
  performers?: string[];
  /** Tag names (new ones are created); a name never holds a comma (the tags field splits on them). */
  tags?: string[];
}

export interface UploadProgress {
  loaded: number;
  /** Null when the browser cannot tell the size of the request. */
  total: number | null;
}

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** The request never got an answer (offline, connection reset, a proxy that hung up). */
export class UploadNetworkError extends Error {
  constructor() {
    super('The upload did not reach the server');
    this.name = 'UploadNetworkError';
  }
}

/** The multipart body: the file, the titles, the id lists as comma-separated ids and the tags' names likewise (as the DTO reads them). */
export function uploadFormData(input: UploadVideoInput): FormData {
  const form = new FormData();
  form.append('title', input.title);
  if (input.atg_title) form.append('atg_title', input.atg_title);
  if (input.jtg_title) form.append('jtg_title', input.jtg_title);
  if (input.featured !== undefined) form.append('featured', String(input.featured));
  if (input.categories?.length) form.append('categories', input.categories.join(','));
  if (input.performers?.length) form.append('performers', input.performers.join(','));
  if (input.tags?.length) form.append('tags', input.tags.join(','));
  // The file goes last: multer then has every text field before it starts streaming the bytes.
  form.append('file', input.file, input.file.name);
  return form;
}

function errorFrom(xhr: XMLHttpRequest): ApiError {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(xhr.responseText);
  } catch {
    // Not JSON (a proxy's HTML page for a 413, an empty body): apiErrorFrom falls back to the status line.
  }
  return apiErrorFrom(xhr.status, xhr.statusText, parsed);
}

/**
 * POST /api/admin/videos as multipart. It goes through XMLHttpRequest rather than the fetch client because
 * only XHR reports how many bytes of the request body have been sent. Resolves with 202 `{id, job_id}`;
 * rejects with an ApiError for a non-2xx answer, an UploadNetworkError when no answer came, and an
 * AbortError DOMException when `signal` aborts it.
 */
export function uploadVideo(input: UploadVideoInput, { onProgress, signal }: UploadOptions = {}): Promise<UploadAccepted> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl('/api/admin/videos'));
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');

    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);

    xhr.upload.onprogress = (event) => {
      onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : null });
    };
    xhr.onload = () => {
      settle();
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(errorFrom(xhr));
        return;
      }
      try {
        resolve(JSON.parse(xhr.responseText) as UploadAccepted);
      } catch {
        reject(new ApiError({ error: 'The server answered with something other than JSON', statusCode: xhr.status }, false));
      }
    };
    xhr.onerror = () => {
      settle();
      reject(new UploadNetworkError());
    };
    xhr.onabort = () => {
      settle();
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };
    xhr.send(uploadFormData(input));
  });
}

export const isAbortError = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * Uploads one video with its progress and a way to cancel it; unmounting cancels it too. `progress` is null
 * while no upload runs.
 */
export function useUploadVideo() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  const mutation = useMutation({
    mutationFn: (input: UploadVideoInput) => {
      controller.current = new AbortController();
      setProgress({ loaded: 0, total: input.file.size });
      return uploadVideo(input, { onProgress: setProgress, signal: controller.current.signal });
    },
    onSettled: () => {
      controller.current = null;
      setProgress(null);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: jobsQueryKey }),
  });

  const cancel = useCallback(() => controller.current?.abort(), []);
  // Leaving the page ends the upload rather than letting it run on where nobody sees it.
  useEffect(() => () => controller.current?.abort(), []);

  return { ...mutation, progress, cancel };
}
