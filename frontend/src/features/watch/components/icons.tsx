// The watch page's icons: decorative (aria-hidden), the controls carrying their own names.

interface IconProps {
  filled?: boolean;
}

const svg = { viewBox: '0 0 24 24', 'aria-hidden': true, focusable: false } as const;

export const PlayIcon = () => (
  <svg {...svg} className="icon icon--solid">
    <path d="M8 5.5v13l10.5-6.5z" />
  </svg>
);

export const PauseIcon = () => (
  <svg {...svg} className="icon icon--solid">
    <path d="M7 5h3.5v14H7zM13.5 5H17v14h-3.5z" />
  </svg>
);

export const PreviousIcon = () => (
  <svg {...svg} className="icon icon--solid">
    <path d="M6 5h2v14H6zM19 5.5v13L9.5 12z" />
  </svg>
);

export const NextIcon = () => (
  <svg {...svg} className="icon icon--solid">
    <path d="M16 5h2v14h-2zM5 5.5v13l9.5-6.5z" />
  </svg>
);

export const VolumeIcon = ({ muted }: { muted: boolean }) => (
  <svg {...svg} className="icon">
    <path d="M4 9.5h3.5L12 5.5v13l-4.5-4H4z" className="icon__fill" />
    {muted ? <path d="M16 9.5l5 5M21 9.5l-5 5" /> : <path d="M15.5 9a4 4 0 0 1 0 6M18 6.5a7.5 7.5 0 0 1 0 11" />}
  </svg>
);

export const FullscreenIcon = ({ active }: { active: boolean }) => (
  <svg {...svg} className="icon">
    {active ? (
      <path d="M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" />
    ) : (
      <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
    )}
  </svg>
);

export const HeartIcon = ({ filled = false }: IconProps) => (
  <svg {...svg} className={filled ? 'icon icon--filled' : 'icon'} data-filled={filled}>
    <path
      d="M12 20.5s-7.5-4.6-7.5-10.1A4.4 4.4 0 0 1 12 7.6a4.4 4.4 0 0 1 7.5 2.8c0 5.5-7.5 10.1-7.5 10.1z"
      fill={filled ? 'currentColor' : 'none'}
    />
  </svg>
);

export const BookmarkIcon = ({ filled = false }: IconProps) => (
  <svg {...svg} className={filled ? 'icon icon--filled' : 'icon'} data-filled={filled}>
    <path d="M6.5 4h11v16.5L12 16.5l-5.5 4z" fill={filled ? 'currentColor' : 'none'} />
  </svg>
);

export const ClockIcon = () => (
  <svg {...svg} className="icon">
    <circle cx="12" cy="12" r="8.5" fill="none" />
    <path d="M12 7.5V12l3 2" />
  </svg>
);

export const CheckIcon = () => (
  <svg {...svg} className="icon">
    <path d="M5 12.5l4.5 4.5L19 7.5" />
  </svg>
);

export const PlaylistAddIcon = () => (
  <svg {...svg} className="icon">
    <path d="M4 6.5h11M4 11.5h11M4 16.5h7M18 13v7M14.5 16.5h7" />
  </svg>
);

export const FlagIcon = () => (
  <svg {...svg} className="icon">
    <path d="M6 20.5V4M6 4.5h11l-2.5 4 2.5 4H6" />
  </svg>
);

export const ShareIcon = () => (
  <svg {...svg} className="icon">
    <path d="M14 5l6 6-6 6M20 11h-9a6 6 0 0 0-6 6v2" />
  </svg>
);

export const EmbedIcon = () => (
  <svg {...svg} className="icon">
    <path d="M8.5 7.5L4 12l4.5 4.5M15.5 7.5L20 12l-4.5 4.5" />
  </svg>
);

export const EyeIcon = () => (
  <svg {...svg} className="icon">
    <path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z" fill="none" />
    <circle cx="12" cy="12" r="2.75" fill="none" />
  </svg>
);

export const PictureInPictureIcon = () => (
  <svg {...svg} className="icon">
    <path d="M3.5 5.5h17v13h-17z" />
    <path d="M12.5 12h6v5h-6z" className="icon__fill" />
  </svg>
);

export const KeyboardIcon = () => (
  <svg {...svg} className="icon">
    <path d="M2.5 6.5h19v11h-19z" />
    <path d="M6 10h1M9.5 10h1M13 10h1M16.5 10h1M7.5 14h9" />
  </svg>
);

/** A wide frame: theater mode (narrower when `active`, for the default view). */
export const TheaterIcon = ({ active = false }: { active?: boolean }) => (
  <svg {...svg} className="icon">
    {active ? <path d="M5.5 7.5h13v9h-13z" /> : <path d="M2.5 7h19v10h-19z" />}
  </svg>
);
