/**
 * What `npm run build:web` (infra/local/build-web.ts) writes to web/dist and the checkout-page
 * function reads: one shared definition, so the two cannot drift apart.
 */
export const CHECKOUT_ASSETS_PATH = '/checkout/assets';

/** Replaced in web/dist/index.html by the page's bootstrap JSON. */
export const BOOTSTRAP_MARKER = '__CHECKOUT_BOOTSTRAP__';

export interface WebManifest {
  /** The entry module (web/dist/assets/<script>), loaded with <script type="module">. */
  script: string;
  /** Stylesheets linked from the page. */
  styles: string[];
  /** Chunks the entry imports statically (preloaded by the shell); lazy chunks are not listed. */
  preload: string[];
  /** Every file under web/dist/assets the asset route may serve, with its Content-Type. */
  files: Record<string, { contentType: string; bytes: number }>;
}
