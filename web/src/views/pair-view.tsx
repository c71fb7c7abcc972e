import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { rememberDevice } from '../hub/hub-client.js';
import { api, RestError } from '../net/rest.js';

/** The code carried by `#pair=<code>` (the URL / QR that `zcode-hub pair` prints), if any. */
export function pairCodeFromHash(hash: string): string | undefined {
  const m = /(?:^#|&)pair=([^&]+)/.exec(hash);
  return m?.[1] ? decodeURIComponent(m[1]) : undefined;
}

/**
 * Pairing: the one-time code is exchanged for a device token at `POST /api/pair`; the hub sets
 * it as an HttpOnly cookie, so the token never reaches script (HUB-DESIGN §7).
 */
export function PairView({ onPaired }: { onPaired: () => void }) {
  const fromUrl = pairCodeFromHash(location.hash);
  const [code, setCode] = useState(fromUrl ?? '');
  const [name, setName] = useState(() => defaultDeviceName());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function pair(c: string) {
    setBusy(true);
    setError('');
    try {
      const device = name.trim() || defaultDeviceName();
      await api('/pair', { method: 'POST', body: { code: c.trim(), name: device, delivery: 'cookie' } });
      rememberDevice(device);
      // Drop the code from the address bar and history: it is single-use anyway.
      history.replaceState(null, '', location.pathname);
      onPaired();
    } catch (err) {
      setError(err instanceof RestError && err.status === 429 ? t('pairRateLimited') : t('pairFailed', (err as Error).message));
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    if (fromUrl) void pair(fromUrl);
  }, []);

  return (
    <main class="pair">
      <img src="/icons/icon.svg" alt="" width={72} height={72} />
      <h1>{t('pairTitle')}</h1>
      <p class="muted">{t('pairIntro')}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void pair(code);
        }}
      >
        <label class="field">
          <span>{t('pairCode')}</span>
          <input name="code" value={code} onInput={(e) => setCode(e.currentTarget.value)} autocomplete="one-time-code" autocapitalize="characters" spellcheck={false} required inputMode="text" />
        </label>
        <label class="field">
          <span>{t('pairDevice')}</span>
          <input name="device" value={name} onInput={(e) => setName(e.currentTarget.value)} maxLength={64} />
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

function defaultDeviceName(): string {
  const ua = navigator.userAgent;
  if (/iPhone/i.test(ua)) return 'iPhone';
  if (/iPad/i.test(ua)) return 'iPad';
  if (/Android/i.test(ua)) return 'Android phone';
  return 'Browser';
}
