/** This device's name as the hub shows it (presence lists, "answered by"). */

const DEVICE_KEY = 'zcode-hub.device';

/** This device's name in presence lists and "answered by": the paired device name when known. */
export function deviceLabel(): string {
  try {
    const saved = localStorage.getItem(DEVICE_KEY);
    if (saved) return saved;
  } catch {
    // Storage blocked: fall back to the platform.
  }
  const ua = navigator.userAgent;
  const os = /Android/i.test(ua)
    ? 'Android'
    : /iPhone|iPad/i.test(ua)
      ? 'iOS'
      : /Mac/i.test(ua)
        ? 'macOS'
        : /Windows/i.test(ua)
          ? 'Windows'
          : 'Linux';
  return `Web · ${os}`;
}

/** Remembers the device name chosen at pairing (the token's name). */
export function rememberDevice(name: string): void {
  try {
    localStorage.setItem(DEVICE_KEY, name);
  } catch {
    // Not remembered; the platform label is used.
  }
}
