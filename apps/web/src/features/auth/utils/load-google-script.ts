/** The few parts of Google Identity Services (https://developers.google.com/identity/gsi/web/reference/js-reference) the login screens use. */
export type GoogleAccountsId = {
  initialize(config: {
    client_id: string;
    callback: (response: { credential: string }) => void;
    auto_select?: boolean;
    cancel_on_tap_outside?: boolean;
    context?: 'signin' | 'signup' | 'use';
    use_fedcm_for_prompt?: boolean;
    itp_support?: boolean;
  }): void;
  renderButton(
    parent: HTMLElement,
    options: {
      type?: 'standard' | 'icon';
      theme?: 'outline' | 'filled_blue' | 'filled_black';
      size?: 'large' | 'medium' | 'small';
      text?: 'signin_with' | 'continue_with';
      shape?: 'rectangular' | 'pill';
      width?: number;
      logo_alignment?: 'left' | 'center';
    },
  ): void;
  /** One tap. */
  prompt(): void;
  cancel(): void;
};

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleAccountsId } };
  }
}

export const GOOGLE_SCRIPT_SRC = 'https://accounts.google.com/gsi/client';

let loading: Promise<GoogleAccountsId> | undefined;

/**
 * Adds Google's script once and resolves with its API. Called only when the server has a client
 * id: without one no script from a third-party host is ever loaded (docs/product.md#self-hosted-assets).
 */
export function loadGoogleScript(): Promise<GoogleAccountsId> {
  const ready = window.google?.accounts?.id;
  if (ready) return Promise.resolve(ready);
  loading ??= new Promise<GoogleAccountsId>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GOOGLE_SCRIPT_SRC;
    script.async = true;
    script.onload = () => {
      const api = window.google?.accounts?.id;
      if (api) resolve(api);
      else reject(new Error('Google sign-in did not start'));
    };
    script.onerror = () => {
      // a later visit to the login screen tries again
      loading = undefined;
      script.remove();
      reject(new Error('Google sign-in could not be loaded'));
    };
    document.head.append(script);
  });
  return loading;
}
