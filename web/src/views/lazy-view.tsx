import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n.js';

/**
 * A screen loaded on first use (dynamic import()), so the first screen's script stays small.
 * Until its chunk arrives the page shows the same busy placeholder as the app while it starts.
 * A chunk that cannot be had — the page runs an older build than the hub now serves (opened
 * from the service worker's cached shell, or left open across an upgrade), or the network is
 * gone — says so, with a reload that takes the hub's current app.
 */
export function lazyView<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const fetchOnce = (): Promise<ComponentType<P>> => {
    pending ??= load().then(
      (c) => {
        loaded = c;
        return c;
      },
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    );
    return pending;
  };
  return function LazyView(props: P) {
    const [View, setView] = useState<ComponentType<P> | undefined>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (View) return;
      let live = true;
      fetchOnce().then(
        (c) => {
          if (live) setView(() => c);
        },
        () => {
          if (live) setFailed(true);
        },
      );
      return () => {
        live = false;
      };
    }, [View]);
    if (View) return <View {...props} />;
    if (!failed) return <div class="page" aria-busy="true" />;
    return (
      <div class="page">
        <main class="scroll list-page">
          <section class="card help-card" data-testid="screen-load-failed">
            <p>{t('screenLoadFailed')}</p>
            <button type="button" class="primary" onClick={() => location.reload()}>
              {t('reloadApp')}
            </button>
          </section>
        </main>
      </div>
    );
  };
}
