import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { rememberDevice } from '../hub/hub-client.js';
import { savedDeviceName } from '../hub/device-name.js';
import { keptDraftCount } from '../hub/kept-drafts.js';
import { api, RestError } from '../net/rest.js';
import { SignedOutNotice } from './signed-out-notice.js';
import { Logo } from './icons.js';
import { clearSignedOut } from '../hub/sign-out.js';

/** The code carried by `#pair=<code>` (the URL / QR that `zcode-hub pair` prints), if any. */
export function pairCodeFromHash(hash: string): string | undefined {
  const m = /(?:^#|&)pair=([^&]+)/.exec(hash);
  return m?.[1] ? decodeURIComponent(m[1]) : undefined;
}

/**
 * Pairing: the one-time code is exchanged for a device token at `POST /api/pair`; the hub sets
 * it as an HttpOnly cookie, so the token never reaches script (ARCHITECTURE.md §7).
 */
export function PairView({ onPaired }: { onPaired: () => void }) {
  const fromUrl = pairCodeFromHash(location.hash);
  const [code, setCode] = useState(fromUrl ?? '');
  // Paired here before (signed out, revoked): the name it had, not the browser's.
  const [name, setName] = useState(() => savedDeviceName() ?? defaultDeviceName());
  const kept = keptDraftCount();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const nameField = useRef<HTMLInputElement>(null);

  async function pair(c: string) {
    setBusy(true);
    setError('');
    try {
      const device = name.trim() || defaultDeviceName();
      await api('/pair', { method: 'POST', body: { code: c.trim(), name: device, delivery: 'cookie' } });
      rememberDevice(device);
      clearSignedOut();
      // Drop the code from the address bar and history: it is single-use anyway.
      // An add-machine link (`#add=…`) stays: it is what the user came for, once paired here.
      history.replaceState(null, '', location.pathname + (/(?:^#|&)add=/.test(location.hash) ? location.hash : ''));
      onPaired();
    } catch (err) {
      setError(err instanceof RestError && err.status === 429 ? t('pairRateLimited') : t('pairFailed', (err as Error).message));
    } finally {
      setBusy(false);
    }
  }

  // A link or QR code fills the code; the name is still asked for — it is how other devices
  // see who prompted and who answered — so the name field gets the focus.
  useEffect(() => {
    if (fromUrl) nameField.current?.select();
  }, []);

  return (
    <main class="pair">
      <Logo size={72} />
      <h1>{t('pairTitle')}</h1>
      <SignedOutNotice />
      {kept > 0 ? (
        <p class="signed-out" role="status" data-testid="drafts-kept">
          {t('draftsKept')}
        </p>
      ) : null}
      <p class="muted">{fromUrl ? t('pairNameIntro') : t('pairIntro')}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void pair(code);
        }}
      >
        <label class="field">
          <span>{t('pairCode')}</span>
          <input
            name="code"
            value={code}
            onInput={(e) => setCode(e.currentTarget.value)}
            autocomplete="one-time-code"
            autocapitalize="characters"
            spellcheck={false}
            required
            inputMode="text"
          />
        </label>
        <label class="field">
          <span>{t('pairDevice')}</span>
          <input
            ref={nameField}
            name="device"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            maxLength={64}
            autocomplete="off"
          />
          <span class="muted small">{t('pairDeviceHint')}</span>
        </label>
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : null}
        <button class="primary wide" type="submit" disabled={busy || !code.trim()}>
          {busy ? t('pairing') : t('pairButton')}
        </button>
      </form>
    </main>
  );
}

/** A starting name from the browser and the platform ("Chrome on Android"), edited by the user. */
export function defaultDeviceName(ua: string = navigator.userAgent): string {
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /(Chrome|CriOS|Chromium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const platform = /iPhone/.test(ua)
    ? 'iPhone'
    : /iPad/.test(ua)
      ? 'iPad'
      : /Android/.test(ua)
        ? 'Android'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'Mac'
          : /Windows/.test(ua)
            ? 'Windows'
            : /CrOS/.test(ua)
              ? 'ChromeOS'
              : /Linux/.test(ua)
                ? 'Linux'
                : '';
  return platform ? `${browser} on ${platform}` : browser;
}
