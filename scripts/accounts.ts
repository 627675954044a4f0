import "./load-env";
import { parseArgs } from "node:util";
import { createAccount, listAccounts, resetPassword } from "../server/auth/accounts";
import { runCli } from "./cli";
import { migrate } from "./migrate";

const USAGE = `Manage dashboard accounts.

  npm run accounts -- create EMAIL ROLE [--password PASSWORD]   (roles: admin, analyst, reviewer)
  npm run accounts -- list
  npm run accounts -- reset-password EMAIL

Without --password, a password is generated and printed once.`;

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { password: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  const [command, email, role] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  await migrate();
  switch (command) {
    case "create": {
      if (!email || !role) {
        console.error(`create needs an email and a role\n\n${USAGE}`);
        return 1;
      }
      const { account, password } = await createAccount({ email, role, password: values.password });
      console.log(`Created ${account.role} ${account.email}; password: ${password}`);
      return 0;
    }
    case "list": {
      for (const a of await listAccounts()) {
        console.log(`${a.email.padEnd(32)} ${a.role.padEnd(9)} ${a.disabled ? "disabled" : "active"}`);
      }
      return 0;
    }
    case "reset-password": {
      if (!email) {
        console.error("reset-password needs an email");
        return 1;
      }
      const password = await resetPassword(email);
      console.log(`New password for ${email}: ${password} (its sessions were ended)`);
      return 0;
    }
    default:
      console.error(`Unknown command ${command}\n\n${USAGE}`);
      return 1;
  }
}

runCli(main);
