import { action, signal } from '@preact/signals';

// Issue 34 (DESIGN "The support team's day"): nobody notices a new waiting shopper who has to stare at the queue. The
// console tells the agent three ways, each of which they can switch off (kept in localStorage, per browser): a short
// sound, the browser's notification (once the agent allowed it: the browser asks only on their click), and the count
// in the tab's title. For a new waiting conversation (unassigned, or given to them) and for a shopper's message on a
// conversation they hold. The sound is made with Web Audio: no file to fetch, nothing for the CSP to allow.

/** Where the choices are kept: `localStorage` in the page. */
type PreferenceStorage = Pick<Storage, 'getItem' | 'setItem'>;

export interface NotifyPreferences {
  sound: boolean;
  desktop: boolean;
  title: boolean;
}

export const NOTIFY_STORAGE_KEY = '_service_console_notify';
const DEFAULTS: NotifyPreferences = { sound: true, desktop: true, title: true };

/** Something the agent should hear of. */
export interface News {
  kind: 'waiting' | 'message';
  conversationId: string;
  /** "New conversation waiting", "Ada Lovelace wrote". */
  title: string;
  /** What the shopper last said, cut for a line. */
  body: string;
}

/** What the page gives the notifier: the browser's sound and notifications, or test doubles. */
export interface NotifyEnvironment {
  preferences?: PreferenceStorage | null;
  /** Plays the chime; absent where there is no audio. */
  chime?(): void;
  /** The browser's notification permission now; absent where there are no notifications. */
  permission?(): NotificationPermission;
  /** Asks the browser (on the agent's click only, or browsers ignore it). */
  requestPermission?(): Promise<NotificationPermission>;
  /** Shows a notification; `onClick` opens the conversation. */
  show?(news: News, onClick: () => void): void;
  /** Whether the agent is looking at this tab now (a notification is then not needed). */
  isFocused?(): boolean;
}

export function createNotifier(env: NotifyEnvironment, open: (conversationId: string) => void) {
  const preferences = signal<NotifyPreferences>(readPreferences(env.preferences));
  const permission = signal<NotificationPermission | 'unsupported'>(env.permission?.() ?? 'unsupported');

  const save = (next: NotifyPreferences) => {
    try {
      env.preferences?.setItem(NOTIFY_STORAGE_KEY, JSON.stringify(next));
    } catch {
      // Storage disabled: the choice lasts for this visit.
    }
  };

  return {
    preferences,
    permission,
    /** Switches one way of telling on or off. */
    set: action((name: keyof NotifyPreferences, isOn: boolean) => {
      const next = { ...preferences.value, [name]: isOn };
      preferences.value = next;
      save(next);
    }),
    /** The browser asks the agent whether the console may show notifications (their click). */
    async allowDesktop(): Promise<void> {
      if (!env.requestPermission) return;
      permission.value = await env
        .requestPermission()
        .catch(() => permission.value as NotificationPermission);
    },
    /** Tells the agent, in the ways they left on; never throws into the page. */
    tell(news: News): void {
      try {
        const prefs = preferences.value;
        if (prefs.sound) env.chime?.();
        if (prefs.desktop && permission.value === 'granted' && !(env.isFocused?.() ?? false))
          env.show?.(news, () => open(news.conversationId));
      } catch {
        // A browser without audio or notifications at the moment: the title and the queue still say it.
      }
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;

function readPreferences(storage: PreferenceStorage | null | undefined): NotifyPreferences {
  try {
    const stored = JSON.parse(
      storage?.getItem(NOTIFY_STORAGE_KEY) ?? 'null',
    ) as Partial<NotifyPreferences> | null;
    if (stored === null || typeof stored !== 'object') return DEFAULTS;
    return {
      sound: typeof stored.sound === 'boolean' ? stored.sound : DEFAULTS.sound,
      desktop: typeof stored.desktop === 'boolean' ? stored.desktop : DEFAULTS.desktop,
      title: typeof stored.title === 'boolean' ? stored.title : DEFAULTS.title,
    };
  } catch {
    return DEFAULTS;
  }
}

/**
 * The browser's side, for main.tsx: a two-note chime through Web Audio, and `Notification`s that focus this tab and
 * open the conversation when clicked. Each missing API leaves its part out.
 */
export function browserNotifyEnvironment(
  win: Window & typeof globalThis,
): Omit<NotifyEnvironment, 'preferences'> {
  let audio: AudioContext | null = null;
  const hasNotifications = typeof win.Notification === 'function';
  return {
    chime() {
      const Context = win.AudioContext;
      if (!Context) return;
      audio ??= new Context();
      // A context made before the page had a click starts suspended; a later chime may find it allowed.
      void audio.resume().catch(() => {});
      const at = audio.currentTime;
      for (const [i, hz] of [660, 880].entries()) {
        const tone = audio.createOscillator();
        const gain = audio.createGain();
        tone.frequency.value = hz;
        gain.gain.setValueAtTime(0.0001, at + i * 0.12);
        gain.gain.exponentialRampToValueAtTime(0.15, at + i * 0.12 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + i * 0.12 + 0.2);
        tone.connect(gain).connect(audio.destination);
        tone.start(at + i * 0.12);
        tone.stop(at + i * 0.12 + 0.22);
      }
    },
    ...(hasNotifications && {
      permission: () => win.Notification.permission,
      requestPermission: () => win.Notification.requestPermission(),
      show(news, onClick) {
        const shown = new win.Notification(news.title, { body: news.body, tag: news.conversationId });
        shown.onclick = () => {
          win.focus();
          onClick();
          shown.close();
        };
      },
    }),
    isFocused: () => win.document.visibilityState === 'visible' && win.document.hasFocus(),
  };
}
