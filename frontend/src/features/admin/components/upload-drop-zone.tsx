import { useEffect, useId, useRef, useState, type DragEvent } from 'react';

const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** A byte count for people: 950 bytes, 12.3 MB, 1.4 GB. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} ${value === 1 ? 'byte' : 'bytes'}` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Browsers give some containers (MKV, FLV) no media type at all: the server judges those by their bytes. */
export const looksLikeVideo = (file: File) => file.type === '' || file.type.startsWith('video/');

interface UploadDropZoneProps {
  file: File | null;
  onFile: (file: File | null) => void;
  /** The message shown under the zone (no file, not a video). */
  error: string | null;
  disabled?: boolean;
}

/** Where the video file is dropped, or picked with the 'Choose a video' button. */
export function UploadDropZone({ file, onFile, error, disabled = false }: UploadDropZoneProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  // dragenter and dragleave fire for every child crossed: count them to know when the pointer really left.
  const depth = useRef(0);

  // A file dropped next to the zone would make the browser open it in place of this page, form and all.
  useEffect(() => {
    const keepPage = (event: globalThis.DragEvent) => {
      if (event.dataTransfer && Array.from(event.dataTransfer.types).includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', keepPage);
    window.addEventListener('drop', keepPage);
    return () => {
      window.removeEventListener('dragover', keepPage);
      window.removeEventListener('drop', keepPage);
    };
  }, []);

  const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

  const onDragEnter = (event: DragEvent<HTMLDivElement>) => {
    if (disabled || !hasFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (disabled || !hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    if (disabled) return;
    const dropped = event.dataTransfer.files[0];
    if (dropped) onFile(dropped);
  };

  const className = ['upload-drop', dragging && 'upload-drop--active', error && 'upload-drop--invalid', file && 'upload-drop--chosen']
    .filter(Boolean)
    .join(' ');

  return (
    <div className="upload-drop-field">
      <div
        className={className}
        onDragEnter={onDragEnter}
        onDragOver={onDragOver}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
        data-testid="upload-drop-zone"
      >
        <svg className="upload-drop__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M12 16V4m0 0-4.5 4.5M12 4l4.5 4.5M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />
        </svg>
        <p className="upload-drop__hint" id={`${id}-hint`}>
          {dragging ? 'Drop the video to choose it' : 'Drag a video file here, or'}
        </p>
        <input
          ref={input}
          id={`${id}-file`}
          className="visually-hidden"
          type="file"
          accept="video/*"
          aria-label="Video file"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          tabIndex={-1}
          disabled={disabled}
          onChange={(event) => {
            const picked = event.target.files?.[0] ?? null;
            if (picked) onFile(picked);
            // The same file can be picked again after it was removed.
            event.target.value = '';
          }}
        />
        <button
          className="button"
          type="button"
          disabled={disabled}
          aria-describedby={error ? `${id}-error` : undefined}
          onClick={() => input.current?.click()}
        >
          {file ? 'Choose another video' : 'Choose a video'}
        </button>
        {file && (
          <p className="upload-drop__file">
            <span className="upload-drop__name">{file.name}</span>{' '}
            <span className="upload-drop__size">({formatBytes(file.size)})</span>
          </p>
        )}
      </div>
      {error && (
        <p className="form-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
