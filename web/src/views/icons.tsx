/** Inline SVG icons (no icon font: nothing extra to download, crisp at any size). */
const PATHS = {
  back: 'M15 18l-6-6 6-6',
  send: 'M4 12l16-8-6 16-2-6-8-2z',
  queue: 'M4 6h13M4 12h13M4 18h8M18 15v6M15 18h6',
  stop: 'M7 7h10v10H7z',
  image: 'M4 5h16v14H4zM4 15l4-4 4 4 3-3 5 5M15 9.5a1.5 1.5 0 1 0 0-.01',
  camera: 'M4 8h3l2-3h6l2 3h3v11H4zM12 17a4 4 0 1 0 0-8 4 4 0 0 0 0 8z',
  inbox: 'M4 13l3-8h10l3 8v6H4zM4 13h5l1 2h4l1-2h5',
  settings:
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19 12l2-1-1-3-2 .2-1.3-1.3L17 5l-3-1-1 2h-2L10 4 7 5l.3 2L7 8.3 5 8 4 11l2 1v0l-2 1 1 3 2-.2 1.3 1.3L7 19l3 1 1-2h2l1 2 3-1-.3-2 1.3-1.3 2 .3 1-3z',
  plus: 'M12 5v14M5 12h14',
  close: 'M6 6l12 12M18 6L6 18',
  chevron: 'M9 6l6 6-6 6',
  terminal: 'M4 5h16v14H4zM7 9l3 3-3 3M12 15h5',
  file: 'M6 3h8l4 4v14H6zM14 3v4h4',
  tool: 'M14 6a4 4 0 0 0-5 5L4 16l4 4 5-5a4 4 0 0 0 5-5l-3 1-2-2z',
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM16 16l4 4',
  check: 'M5 12l5 5 9-10',
  diff: 'M6 3h8l4 4v14H6zM9 11h6M12 8v6M9 17h6',
  folder: 'M3 6h6l2 2h10v11H3z',
  mic: 'M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3zM5 11a7 7 0 0 0 14 0M12 18v3',
  speaker: 'M4 9h4l5-4v14l-5-4H4zM16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  up: 'M6 15l6-6 6 6',
  down: 'M6 9l6 6 6-6',
  follow: 'M12 4v11M7 10l5 5 5-5M5 20h14',
  branch: 'M6 3v12M18 9a3 3 0 1 0 0-.01M6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM18 9a9 9 0 0 1-9 9',
} as const;

export type IconName = keyof typeof PATHS;

/** A 20 px stroke icon; decorative (aria-hidden) — the button around it carries the label. */
export function Icon({ name, size = 20 }: { name: IconName; size?: number }) {
  return (
    <svg
      class="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}

/**
 * The app's logo, drawn inline (the same drawing as `/icons/icon.svg`): an `<img>` of that file
 * beside the page's `<link rel="icon">` made a first load fetch the favicon twice, once for each.
 */
export function Logo({ size }: { size: number }) {
  return (
    <svg class="logo" width={size} height={size} viewBox="0 0 512 512" aria-hidden="true">
      <rect width="512" height="512" rx="112" fill="#3b5bdb" />
      <path d="M150 160h212L168 352h194" fill="none" stroke="#ffffff" stroke-width="48" stroke-linecap="round" stroke-linejoin="round" />
      <circle cx="392" cy="132" r="36" fill="#ffd43b" />
    </svg>
  );
}
