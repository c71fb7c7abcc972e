/** This device's name as the hub shows it (presence lists, "answered by"). */

const DEVICE_KEY = 'zcode-hub.device';

/** This device's name in presence lists and "answered by": the paired device name when known. */
export function deviceLabel(): string {
  const saved = savedDeviceName();
  if (saved) return saved;
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

/** The name this device was paired with last (kept through a sign-out: pairing again offers it), if any. */
export function savedDeviceName(): string | undefined {
  try {
    return localStorage.getItem(DEVICE_KEY) || undefined;
  } catch {
    // Storage blocked: no name known.
    return undefined;
  }
}

/** Remembers the device name chosen at pairing (the token's name). */
export function rememberDevice(name: string): void {
  try {
    localStorage.setItem(DEVICE_KEY, name);
  } catch {
    // Not remembered; the platform label is used.
  }
}
