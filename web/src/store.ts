import { useEffect, useReducer, useRef } from 'preact/hooks';

/** A minimal observable store: one state object replaced immutably, listeners told on change. */
export class Store<S> {
  private listeners = new Set<() => void>();
  constructor(private state: S) {}
  /** The current state. */
  get(): S {
    return this.state;
  }
  /** Replaces the state with `fn(state)` and notifies listeners when it changed. */
  update(fn: (s: S) => S): void {
    const next = fn(this.state);
    if (next === this.state) return;
    this.state = next;
    for (const l of this.listeners) l();
  }
  /** Registers a listener; returns the unsubscribe function. */
  subscribe(l: () => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
}

/** Re-renders the component when `select(state)` changes (by identity). */
export function useSelector<S, T>(store: Store<S>, select: (s: S) => T): T {
  const [, force] = useReducer((x: number) => x + 1, 0);
  const selectRef = useRef(select);
  selectRef.current = select;
  const value = select(store.get());
  const valueRef = useRef(value);
  valueRef.current = value;
  useEffect(() => {
    const check = () => {
      if (!Object.is(selectRef.current(store.get()), valueRef.current)) force(0);
    };
    const off = store.subscribe(check);
    // A change between render and this effect would otherwise be missed.
    check();
    return off;
  }, [store]);
  return value;
}
