// The operator console's sign-in and audit log (docs/product.md#the-operator-console): operators are
// made on the command line, set a password and a second factor once with their welcome link, sign in
// with an RFC 6238 code (each step once) or a recovery code (each once), and every action is written to
// an append-only audit log. Members' tokens never open the console, and a console token is no member's.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CONSOLE_MSG, type TAuditEntry, type TConsoleWelcomeResponse } from '@spotter/shared';
import { auditLog, operators } from '../src/db/schema';
import { addOperator, removeOperatorByEmail } from '../src/modules/console';
import { createAccount, uniqueEmail, useTestApp } from './helper';
import { codeAt, OPERATOR_PASSWORD, signedInOperator } from './support/console';

const t = await useTestApp();
const db = t.database.db;
const PASSWORD = OPERATOR_PASSWORD;
const deps = { db, now: () => new Date() };

const post = (url: string, payload: object, token?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: token ? { authorization: token } : {} });
const get = (url: string, token?: string) => t.app.inject({ url, headers: token ? { authorization: token } : {} });
const welcomedOperator = (email?: string) => signedInOperator(t, email);

describe('an operator’s welcome', () => {
  it('sets the password and answers the second factor once: a secret for an authenticator app and ten recovery codes', async () => {
    const email = uniqueEmail();
    const added = await addOperator(deps, email);
    expect(added.created).toBe(true);
    const short = await post('/api/console/welcome', { token: added.token, password: 'Short1' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors.password).toBe(CONSOLE_MSG.passwordShort);
    const res = await post('/api/console/welcome', { token: added.token, password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const factor = res.json() as TConsoleWelcomeResponse;
    expect(factor.totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect(factor.recoveryCodes).toHaveLength(10);
    const url = new URL(factor.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(factor.totpSecret);
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(res.headers['cache-control']).toBe('private, no-store');
    // the link works once
    const again = await post('/api/console/welcome', { token: added.token, password: PASSWORD });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'LINK_INVALID', message: CONSOLE_MSG.welcomeInvalid });
    // what is stored: hashes of the recovery codes, never the codes or the password
    const [row] = await db
      .select()
      .from(operators)
      .where(sql`${operators.id} = ${added.id}`);
    expect(row.recoveryCodeHashes).toHaveLength(10);
    expect(JSON.stringify(row)).not.toContain(factor.recoveryCodes[0]);
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    // nor the authenticator's secret: it is sealed, so a copy of the database alone signs nobody in
    expect(row.totpSecret).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(factor.totpSecret);
  });

  it('a secret kept in the clear before secrets were sealed still signs in, and is sealed then', async () => {
    const op = await welcomedOperator();
    await db
      .update(operators)
      .set({ totpSecret: op.factor.totpSecret })
      .where(sql`${operators.id} = ${op.id}`);
    const login = await post('/api/console/login', { email: op.email, password: PASSWORD, code: codeAt(op.factor.totpSecret) });
    expect(login.statusCode, login.body).toBe(200);
    const [row] = await db
      .select()
      .from(operators)
      .where(sql`${operators.id} = ${op.id}`);
    expect(row.totpSecret).toMatch(/^v1\./);
    // a sealed secret that was changed opens nothing: the sign-in fails as any wrong code does
    await db
      .update(operators)
      .set({ totpSecret: `${row.totpSecret!.slice(0, -4)}AAAA` })
      .where(sql`${operators.id} = ${op.id}`);
    const tampered = await post('/api/console/login', {
      email: op.email,
      password: PASSWORD,
      code: codeAt(op.factor.totpSecret, Date.now() + 30_000),
    });
    expect(tampered.statusCode).toBe(401);
    expect(tampered.json().message).toBe(CONSOLE_MSG.signInFailed);
  });

  it('an expired or unknown link sets nothing', async () => {
    const added = await addOperator(deps, uniqueEmail());
    await db.execute(sql`update operators set welcome_expires_at = now() - interval '1 minute' where id = ${added.id}`);
    expect((await post('/api/console/welcome', { token: added.token, password: PASSWORD })).statusCode).toBe(400);
    expect((await post('/api/console/welcome', { token: 'x'.repeat(43), password: PASSWORD })).statusCode).toBe(400);
    const [row] = await db
      .select()
      .from(operators)
      .where(sql`${operators.id} = ${added.id}`);
    expect(row.passwordHash).toBeNull();
  });

  it('promotes the member account of the same e-mail, and keeps the two apart', async () => {
    const member = await createAccount(t, 'user');
    const added = await addOperator(deps, member.email);
    expect(added.promoted).toBe(true);
    const res = await post('/api/console/welcome', { token: added.token, password: PASSWORD });
    const code = codeAt(res.json().totpSecret);
    // the member's password is not the console's
    expect((await post('/api/console/login', { email: member.email, password: member.password, code })).statusCode).toBe(401);
    expect((await post('/api/console/login', { email: member.email, password: PASSWORD, code })).statusCode).toBe(200);
  });
});

describe('a console sign-in', () => {
  it('needs the password and a code of now; each code works once, and every failure says the same', async () => {
    const op = await welcomedOperator();
    const code = codeAt(op.factor.totpSecret);
    const wrongPassword = await post('/api/console/login', { email: op.email, password: 'Wrong-pass-123', code });
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', message: CONSOLE_MSG.signInFailed });
    const wrongCode = await post('/api/console/login', {
      email: op.email,
      password: PASSWORD,
      code: codeAt(op.factor.totpSecret, Date.now() + 10 * 60_000),
    });
    expect(wrongCode.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', message: CONSOLE_MSG.signInFailed });
    const unknown = await post('/api/console/login', { email: uniqueEmail(), password: PASSWORD, code });
    expect(unknown.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', message: CONSOLE_MSG.signInFailed });
    const ok = await post('/api/console/login', { email: op.email.toUpperCase(), password: PASSWORD, code });
    expect(ok.statusCode).toBe(200);
    // the same code again (somebody who saw it): refused
    const replay = await post('/api/console/login', { email: op.email, password: PASSWORD, code });
    expect(replay.statusCode).toBe(401);
    const me = await get('/api/console/me', ok.json().token);
    expect(me.json()).toEqual({ operator: { _id: op.id, email: op.email } });
    expect(me.headers['cache-control']).toBe('private, no-store');
  });

  it('takes a recovery code instead of a code, once', async () => {
    const op = await welcomedOperator();
    const [first, second] = op.factor.recoveryCodes;
    const res = await post('/api/console/login', { email: op.email, password: PASSWORD, code: first.toUpperCase() });
    expect(res.statusCode).toBe(200);
    expect((await post('/api/console/login', { email: op.email, password: PASSWORD, code: first })).statusCode).toBe(401);
    expect(
      (await post('/api/console/login', { email: op.email, password: PASSWORD, code: second.replace('-', ' ') })).statusCode,
    ).toBe(200);
  });

  it('a removed operator cannot sign in, and their sessions end at once', async () => {
    const op = await welcomedOperator();
    expect((await get('/api/console/me', op.token)).statusCode).toBe(200);
    expect(await removeOperatorByEmail(deps, op.email)).toBe(true);
    const after = await get('/api/console/me', op.token);
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe(CONSOLE_MSG.signedOut);
    const login = await post('/api/console/login', { email: op.email, password: PASSWORD, code: codeAt(op.factor.totpSecret) });
    expect(login.statusCode).toBe(401);
    expect(await removeOperatorByEmail(deps, op.email)).toBe(false);
    // added again: a new welcome, a new second factor; the old secret no longer signs in
    const again = await addOperator(deps, op.email);
    expect(again.created).toBe(false);
    const fresh = await post('/api/console/welcome', { token: again.token, password: PASSWORD });
    expect(fresh.json().totpSecret).not.toBe(op.factor.totpSecret);
  });

  it('signing out ends every console session of that operator at once, and is in the audit log', async () => {
    const op = await welcomedOperator();
    // a second session of the same operator (another tab), with the current step's code
    const other = await post('/api/console/login', { email: op.email, password: PASSWORD, code: codeAt(op.factor.totpSecret) });
    expect(other.statusCode, other.body).toBe(200);
    const second = other.json().token as string;
    const bystander = await welcomedOperator();

    const out = await post('/api/console/logout', {}, op.token);
    expect(out.statusCode, out.body).toBe(204);
    expect(out.headers['cache-control']).toBe('private, no-store');
    for (const token of [op.token, second]) {
      const me = await get('/api/console/me', token);
      expect(me.statusCode).toBe(401);
      expect(me.json().message).toBe(CONSOLE_MSG.signedOut);
    }
    // a spent session cannot sign out again, and another operator's session goes on
    expect((await post('/api/console/logout', {}, op.token)).statusCode).toBe(401);
    expect((await get('/api/console/me', bystander.token)).statusCode).toBe(200);
    const audit = await get(`/api/console/audit?action=operator.sign-out&operatorId=${op.id}`, bystander.token);
    expect((audit.json().entries as TAuditEntry[]).map((e) => [e.action, e.targetId])).toEqual([['operator.sign-out', op.id]]);
  });
});

describe('who may use the console', () => {
  it('no token: 401; a member’s token: 403; a console token opens no member route', async () => {
    const op = await welcomedOperator();
    const user = await createAccount(t, 'user');
    const trainer = await createAccount(t, 'trainer');
    for (const url of ['/api/console/me', '/api/console/audit', '/api/console/audit.csv']) {
      expect((await get(url)).statusCode).toBe(401);
      expect((await get(url, user.token)).statusCode).toBe(403);
      expect((await get(url, trainer.token)).statusCode).toBe(403);
      expect((await get(url, 'not-a-token')).statusCode).toBe(401);
      expect((await get(url, op.token)).statusCode).toBe(200);
    }
    expect((await get('/api/userData', op.token)).statusCode).toBe(401);
    expect((await get('/api/trainerData', op.token)).statusCode).toBe(401);
    expect((await get('/api/bookings', op.token)).statusCode).toBe(401);
  });
});

describe('the audit log', () => {
  it('has every step, newest first, filtered by action, operator and target; and as CSV', async () => {
    const op = await welcomedOperator();
    const res = await get(`/api/console/audit?targetId=${op.id}`, op.token);
    expect(res.statusCode).toBe(200);
    const entries = res.json().entries as TAuditEntry[];
    expect(entries.map((e) => [e.action, e.operatorId])).toEqual([
      ['operator.sign-in', op.id],
      ['operator.welcome', op.id],
      ['operator.add', null],
    ]);
    expect(entries[0].reason).toBe('signed in with an authenticator code');
    const byAction = (await get(`/api/console/audit?action=operator.add&targetId=${op.id}`, op.token)).json().entries;
    expect(byAction).toHaveLength(1);
    const byOperator = (await get(`/api/console/audit?operatorId=${op.id}`, op.token)).json().entries as TAuditEntry[];
    expect(byOperator.every((e) => e.operatorId === op.id && e.operatorEmail === op.email)).toBe(true);
    expect((await get('/api/console/audit?limit=0', op.token)).statusCode).toBe(400);
    expect((await get('/api/console/audit?before=yesterday', op.token)).statusCode).toBe(400);

    const csv = await get(`/api/console/audit.csv?targetId=${op.id}`, op.token);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toContain('attachment');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('at,operatorEmail,operatorId,action,targetKind,targetId,reason,before,after');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain('"operator.sign-in"');
  });

  it('a cell that a spreadsheet would run as a formula is written as text', async () => {
    const op = await welcomedOperator(`=cmd${Date.now()}@example.com`);
    const csv = await get(`/api/console/audit.csv?targetId=${op.id}`, op.token);
    expect(csv.body).toContain(`"'=cmd`);
    expect(csv.body).not.toMatch(/(^|,)"=/m);
  });

  it('is append-only: UPDATE, DELETE and TRUNCATE are refused by the database itself', async () => {
    await welcomedOperator();
    for (const statement of [sql`update audit_log set reason = 'changed'`, sql`delete from audit_log`, sql`truncate audit_log`]) {
      await expect(db.execute(statement)).rejects.toThrow();
    }
    const changed = await db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.reason} = 'changed'`);
    expect(changed).toEqual([]);
    expect((await db.select().from(auditLog)).length).toBeGreaterThan(0);
  });
});
