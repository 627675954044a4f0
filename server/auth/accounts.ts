import { prisma } from "../db/client";
import { newId } from "../db/ids";
import { withWriteLock } from "../db/write-lock";
import { ApiError, invalid } from "../http/errors";
import { generatePassword, hashPassword } from "./passwords";
import { type Role, isRole } from "./roles";

export interface AccountView {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  disabled: boolean;
}

type AccountRow = NonNullable<Awaited<ReturnType<typeof prisma.account.findUnique>>>;

export const accountView = (a: AccountRow): AccountView => ({
  id: a.id,
  email: a.email,
  role: a.role as Role,
  createdAt: a.createdAt.toISOString(),
  disabled: a.disabledAt !== null,
});

const EMAIL = /^[^\s@]+@[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 10;

/** Creates an account; without a password, one is generated. Returns the password once. */
export async function createAccount(input: { email: string; role: string; password?: string }) {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw invalid("email", "must be an email address");
  if (!isRole(input.role)) throw invalid("role", "must be admin, analyst or reviewer");
  const password = input.password ?? generatePassword();
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw invalid("password", `must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  const passwordHash = await hashPassword(password);
  const account = await withWriteLock(async () => {
    if (await prisma.account.findUnique({ where: { email } })) {
      throw new ApiError("conflict", `an account for ${email} already exists`, "email");
    }
    return prisma.account.create({
      data: { id: newId(), email, role: input.role, passwordHash, createdAt: new Date() },
    });
  });
  return { account: accountView(account), password };
}

export async function listAccounts(): Promise<AccountView[]> {
  return (await prisma.account.findMany({ orderBy: { createdAt: "asc" } })).map(accountView);
}

/** Disables an account and ends its sessions; the last admin cannot be disabled. */
export async function disableAccount(id: string, byAccountId: string): Promise<AccountView> {
  return withWriteLock(async () => {
    const account = await prisma.account.findUnique({ where: { id } });
    if (!account) throw new ApiError("not_found", "account not found");
    if (id === byAccountId) throw new ApiError("invalid_input", "you cannot disable your own account", "id");
    const updated = await prisma.account.update({ where: { id }, data: { disabledAt: new Date() } });
    await prisma.session.deleteMany({ where: { accountId: id } });
    return accountView(updated);
  });
}

/** On a database without accounts, creates the first admin and returns its password once. */
export async function ensureFirstAdmin(email = "admin@localhost") {
  if ((await prisma.account.count()) > 0) return null;
  return createAccount({ email, role: "admin" });
}

/** Sets a new generated password and ends the account's sessions; returns the password once. */
export async function resetPassword(email: string): Promise<string> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  await withWriteLock(async () => {
    const account = await prisma.account.findUnique({ where: { email: email.trim().toLowerCase() } });
    if (!account) throw new ApiError("not_found", `no account for ${email}`);
    await prisma.account.update({ where: { id: account.id }, data: { passwordHash, disabledAt: null } });
    await prisma.session.deleteMany({ where: { accountId: account.id } });
  });
  return password;
}
