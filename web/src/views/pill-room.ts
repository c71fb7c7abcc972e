import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/**
 * The room the conversation makes below its last message for the connection pill (polish.css),
 * measured rather than guessed: the pill sits at a fixed height above the screen's bottom, and
 * what lies between it and the conversation depends on the device — a composer on an operate
 * device, nothing on a view device, a taller composer while a prompt is being written. The room is
 * how far the pill's top reaches into the list, plus the list's own gap between messages; CSS
 * applies it only while the pill shows. Measured again whenever the list or the pill changes size
 * (the pill's text comes, the composer grows, the screen turns); the list's own scroll hook keeps
 * a reader at the bottom when the room changes.
 */
export function usePillRoom(scroller: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const list = scroller.current;
    const pill = list?.closest('.shell')?.querySelector<HTMLElement>('.conn');
    if (!list || !pill) return;
    const measure = () => {
      // A sheet moves the pill above itself (polish.css): the room is for where it sits without one.
      if (document.querySelector('.sheet-backdrop')) return;
      // offsetTop of a fixed box ignores its transform: the pill slides in, and the room is for where it ends.
      const reach = list.getBoundingClientRect().bottom - pill.offsetTop;
      const gap = parseFloat(getComputedStyle(list).rowGap) || 0;
      list.style.setProperty('--pill-room', `${Math.max(0, Math.ceil(reach)) + gap}px`);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(list, { box: 'border-box' });
    ro.observe(pill, { box: 'border-box' });
    return () => ro.disconnect();
  }, []);
}
