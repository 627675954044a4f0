import { newId } from "../storage/ids";
import { ApiError, invalid } from "../errors";
import type { StoredAccount } from "../storage/accounts";
import { storage } from "../storage";
import { generatePassword, hashPassword } from "./passwords";
import { type Role, isRole } from "./roles";

export interface AccountView {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
  disabled: boolean;
}

export const accountView = (a: StoredAccount): AccountView => ({
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
  const account = await storage().accounts.create({
    id: newId(),
    email,
    role: input.role,
    passwordHash,
    createdAt: new Date(),
  });
  if (!account) throw new ApiError("conflict", `an account for ${email} already exists`, "email");
  return { account: accountView(account), password };
}

export async function listAccounts(): Promise<AccountView[]> {
  return (await storage().accounts.list()).map(accountView);
}

/**
 * Changes an account's role or enables/disables it (disabling signs it out everywhere; a new role
 * applies to its next request). Nobody changes their own account here, and the last enabled
 * admin stays one.
 */
export async function changeAccount(
  id: string,
  byAccountId: string,
  change: { role?: string; disabled?: boolean },
): Promise<AccountView> {
  if (change.role !== undefined && !isRole(change.role)) {
    throw invalid("role", "must be admin, analyst or reviewer");
  }
  if (id === byAccountId) {
    throw new ApiError(
      "invalid_input",
      change.role !== undefined ? "you cannot change your own role" : "you cannot disable your own account",
      "id",
    );
  }
  const result = await storage().accounts.change(id, {
    ...(change.role !== undefined && { role: change.role }),
    ...(change.disabled !== undefined && { disabledAt: change.disabled ? new Date() : null }),
  });
  if (result === "not_found") throw new ApiError("not_found", "account not found");
  if (result === "last_admin") {
    throw new ApiError("conflict", "this is the last enabled admin: make another account admin first", "id");
  }
  return accountView(result);
}

/** The enabled admins' emails: who can change what an account may do. */
export async function adminEmails(): Promise<string[]> {
  return (await storage().accounts.list())
    .filter((a) => a.role === "admin" && !a.disabledAt)
    .map((a) => a.email);
}

/** On a database without accounts, creates the first admin and returns its password once. */
export async function ensureFirstAdmin(email = "admin@localhost") {
  if ((await storage().accounts.count()) > 0) return null;
  return createAccount({ email, role: "admin" });
}

/** Sets a new generated password and ends the account's sessions; returns the password once. */
export async function resetPassword(email: string): Promise<string> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  if (!(await storage().accounts.setPassword(email.trim().toLowerCase(), passwordHash))) {
    throw new ApiError("not_found", `no account for ${email}`);
  }
  return password;
}
