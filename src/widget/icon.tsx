const PATHS = {
  chat: 'M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z',
  close: 'M6 6l12 12M18 6L6 18',
  send: 'M4 12l16-8-6 16-2-7z',
};

export interface IconProps {
  name: keyof typeof PATHS;
}

/** Decorative: the button around it carries the accessible name. */
export function Icon({ name }: IconProps) {
  return (
    <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} />
    </svg>
  );
}
