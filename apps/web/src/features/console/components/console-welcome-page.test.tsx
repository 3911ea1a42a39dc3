import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CONSOLE_MSG, type TConsoleWelcomeResponse } from '@spotter/shared';
import { stubApi } from '@/testing/fake-api';
import { jsonResponse } from '@/testing/render';
import { captureDownloads, renderConsole, requestOf } from '../testing/render-console';

const TOKEN = 'welcome-token-0123456789';
const PASSWORD = 'Console-pass-12';
const FACTOR: TConsoleWelcomeResponse = {
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUrl:
    'otpauth://totp/Spotter%20console:ops%40example.com?issuer=Spotter%20console&secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
  recoveryCodes: Array.from({ length: 10 }, (_, i) => `a1b2${i}-c3d4${i}`),
};

const welcomeRoute = (answer: () => Response) => (url: URL, init: RequestInit) =>
  url.pathname === '/api/console/welcome' && init.method === 'POST' ? answer() : undefined;

afterEach(() => sessionStorage.clear());

describe('the console’s welcome page', () => {
  it('says a link without a token is not valid, and offers no form', async () => {
    const fetchMock = stubApi();
    renderConsole('/console/welcome');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome link not valid' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(CONSOLE_MSG.welcomeInvalid);
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to the console' })).toHaveAttribute('href', '/console/login');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks for 12 characters and a matching confirmation before sending anything', async () => {
    const fetchMock = stubApi(welcomeRoute(() => jsonResponse(FACTOR)));
    const { user } = renderConsole(`/console/welcome?token=${TOKEN}`);
    await user.type(await screen.findByLabelText('Password'), 'Short-pass1');
    await user.type(screen.getByLabelText('Confirm password'), 'Short-pass2');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(expect.stringContaining(CONSOLE_MSG.passwordShort));
    expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription('Passwords must match');
    expect(screen.getByLabelText('Password')).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the token and the password, then shows the second factor once: QR code, secret and ten recovery codes', async () => {
    const fetchMock = stubApi(welcomeRoute(() => jsonResponse(FACTOR)));
    const downloads = captureDownloads();
    try {
      const { user } = renderConsole(`/console/welcome?token=${TOKEN}`);
      await user.type(await screen.findByLabelText('Password'), PASSWORD);
      await user.type(screen.getByLabelText('Confirm password'), PASSWORD);
      await user.click(screen.getByRole('button', { name: 'Set password' }));

      expect(await screen.findByRole('heading', { level: 1, name: 'Set up your second factor' })).toHaveFocus();
      expect(fetchMock).toHaveBeenCalledOnce();
      expect(requestOf(fetchMock.mock.calls[0])).toMatchObject({
        method: 'POST',
        url: '/api/console/welcome',
        authorization: null,
        body: { token: TOKEN, password: PASSWORD },
      });
      expect(screen.getByText('Shown once')).toBeInTheDocument();
      const qr = await screen.findByRole('img', { name: /QR code for your authenticator app/ });
      expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
      expect(screen.getByLabelText('Secret (to type into the app)')).toHaveTextContent(FACTOR.totpSecret);
      const codes = within(screen.getByRole('list', { name: 'Recovery codes' })).getAllByRole('listitem');
      expect(codes.map((c) => c.textContent)).toEqual(FACTOR.recoveryCodes);

      await user.click(screen.getByRole('button', { name: 'Copy' }));
      expect(await screen.findByText('Copied the recovery codes.')).toBeInTheDocument();
      // user-event's clipboard stands in for the browser's
      await expect(navigator.clipboard.readText()).resolves.toBe(FACTOR.recoveryCodes.join('\n'));

      await user.click(screen.getByRole('button', { name: 'Download' }));
      expect(downloads.files).toHaveLength(1);
      expect(downloads.files[0].name).toBe('spotter-console-recovery-codes.txt');
      const text = await downloads.files[0].blob.text();
      for (const code of FACTOR.recoveryCodes) expect(text).toContain(code);

      expect(screen.getByRole('link', { name: 'Continue to sign in' })).toHaveAttribute('href', '/console/login');
      // nothing of the console's is kept in the browser before signing in
      expect(sessionStorage.length).toBe(0);
      expect(localStorage.length).toBe(0);
    } finally {
      downloads.restore();
    }
  });

  it('says so when the link was used or expired', async () => {
    stubApi(
      welcomeRoute(() => jsonResponse({ statusCode: 400, code: 'LINK_INVALID', message: CONSOLE_MSG.welcomeInvalid }, 400)),
    );
    const { user } = renderConsole(`/console/welcome?token=${TOKEN}`);
    await user.type(await screen.findByLabelText('Password'), PASSWORD);
    await user.type(screen.getByLabelText('Confirm password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome link not valid' })).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent(CONSOLE_MSG.welcomeInvalid);
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });

  it('shows any other failure above the form, in a live region, and keeps the form', async () => {
    stubApi(welcomeRoute(() => jsonResponse({ statusCode: 500, message: 'Something broke' }, 500)));
    const { user } = renderConsole(`/console/welcome?token=${TOKEN}`);
    await user.type(await screen.findByLabelText('Password'), PASSWORD);
    await user.type(screen.getByLabelText('Confirm password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    const message = await screen.findByText('Something broke');
    expect(message.closest('[aria-live]')).toHaveAttribute('aria-live', 'assertive');
    expect(screen.getByLabelText('Password')).toHaveValue(PASSWORD);
  });
});
