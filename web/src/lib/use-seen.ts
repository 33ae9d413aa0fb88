import { useCallback, useState } from 'react';

/**
 * Whether an element has come near the screen yet (within 200 px), for work each item of a long
 * list needs only once someone may look at it. It stays true once seen. Give `ref` to the element.
 */
export function useSeen<T extends Element>(): {
  ref: (element: T | null) => (() => void) | undefined;
  seen: boolean;
} {
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  const ref = useCallback(
    (element: T | null) => {
      if (!element || seen) return undefined;
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
        },
        { rootMargin: '200px' },
      );
      observer.observe(element);
      return () => observer.disconnect();
    },
    [seen],
  );
  return { ref, seen };
}
