/** Loads one external script once (the network SDKs). Rejects on error or after a timeout. */
const loaded = new Map<string, Promise<void>>();

export function loadScript(src: string, timeoutMs = 15_000): Promise<void> {
  const existing = loaded.get(src);
  if (existing) return existing;
  const promise = new Promise<void>((resolve, reject) => {
    const url = new URL(src, location.href);
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
      reject(new Error('SDK URLs must be https (http only on loopback)'));
      return;
    }
    const script = document.createElement('script');
    script.src = url.href;
    script.async = true;
    const timer = setTimeout(() => reject(new Error('SDK load timed out')), timeoutMs);
    script.onload = () => {
      clearTimeout(timer);
      resolve();
    };
    script.onerror = () => {
      clearTimeout(timer);
      reject(new Error('SDK failed to load'));
    };
    document.head.appendChild(script);
  });
  loaded.set(src, promise);
  promise.catch(() => loaded.delete(src));
  return promise;
}
