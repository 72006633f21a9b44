import { type RefObject, useEffect } from 'react';

/** How close to the end (px) still counts as reading the newest message. */
const NEAR_END_PX = 24;

/**
 * A thread read at its end stays at its end when its box shrinks or grows (a status row above
 * it, the quick replies, the phone's keyboard): the newest message never slides out of view.
 * Scrolled up to read older messages, nothing moves.
 */
export function useKeepEndInView(scrollerRef: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller || typeof ResizeObserver === 'undefined') return;
    let isAtEnd = true;
    const onScroll = () => {
      isAtEnd = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= NEAR_END_PX;
    };
    const observer = new ResizeObserver(() => {
      if (isAtEnd) scroller.scrollTop = scroller.scrollHeight;
    });
    scroller.addEventListener('scroll', onScroll, { passive: true });
    observer.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, [scrollerRef]);
}
