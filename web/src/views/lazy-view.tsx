import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * A screen loaded on first use (dynamic import()), so the first screen's script stays small.
 * Until its chunk arrives the page shows the same busy placeholder as the app while it starts.
 */
export function lazyView<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const fetchOnce = (): Promise<ComponentType<P>> => {
    pending ??= load().then((c) => {
      loaded = c;
      return c;
    });
    return pending;
  };
  return function LazyView(props: P) {
    const [View, setView] = useState<ComponentType<P> | undefined>(() => loaded);
    useEffect(() => {
      if (View) return;
      let live = true;
      void fetchOnce().then((c) => {
        if (live) setView(() => c);
      });
      return () => {
        live = false;
      };
    }, [View]);
    return View ? <View {...props} /> : <div class="page" aria-busy="true" />;
  };
}
