import { useEffect, useRef, useState } from 'react';
import { useAuthConfig } from '@/lib/api/auth-config';
import { loadGoogleScript } from '../utils/load-google-script';

type GoogleSignInProps = {
  /** Receives Google's ID token, untouched, for the server to verify. */
  onCredential: (credential: string) => void;
};

/**
 * Google's sign-in button and one tap (docs/product.md#google-sign-in), shown only when the server has a client id;
 * otherwise nothing renders and Google's script is never requested.
 */
export function GoogleSignIn({ onCredential }: GoogleSignInProps) {
  const { data } = useAuthConfig();
  const clientId = data?.googleClientId;
  if (!clientId) return null;
  return <GoogleButton clientId={clientId} onCredential={onCredential} />;
}

const BUTTON_MAX_WIDTH = 400; // Google draws buttons 200–400 px wide

function GoogleButton({ clientId, onCredential }: GoogleSignInProps & { clientId: string }) {
  const buttonRef = useRef<HTMLDivElement>(null);
  const onCredentialRef = useRef(onCredential);
  const [isUnavailable, setIsUnavailable] = useState(false);

  useEffect(() => {
    onCredentialRef.current = onCredential;
  }, [onCredential]);

  useEffect(() => {
    let isCancelled = false;
    loadGoogleScript()
      .then((google) => {
        const parent = buttonRef.current;
        if (isCancelled || !parent) return;
        google.initialize({
          client_id: clientId,
          callback: ({ credential }) => onCredentialRef.current(credential),
          auto_select: false,
          cancel_on_tap_outside: true,
          context: 'signin',
          use_fedcm_for_prompt: true,
          itp_support: true,
        });
        google.renderButton(parent, {
          type: 'standard',
          theme: 'outline',
          size: 'large',
          text: 'signin_with',
          shape: 'pill',
          logo_alignment: 'center',
          width: Math.min(BUTTON_MAX_WIDTH, parent.clientWidth || BUTTON_MAX_WIDTH),
        });
        google.prompt();
      })
      .catch(() => {
        if (!isCancelled) setIsUnavailable(true);
      });
    return () => {
      isCancelled = true;
      // one tap must not stay open over the next screen
      window.google?.accounts?.id?.cancel();
    };
  }, [clientId]);

  return (
    <div className="mt-6">
      <div className="flex items-center gap-3 text-sm text-muted" aria-hidden="true">
        <span className="h-px flex-1 bg-line" />
        or
        <span className="h-px flex-1 bg-line" />
      </div>
      <div ref={buttonRef} role="group" aria-label="Sign in with Google" className="mt-4 flex min-h-11 justify-center" />
      {isUnavailable && (
        <p className="mt-2 text-center text-sm text-muted">
          Google sign-in could not be loaded. Log in with your e-mail instead.
        </p>
      )}
    </div>
  );
}
