import Link from "next/link";
import { redirect } from "next/navigation";
import { adminEmails } from "@/server/auth/accounts";
import { currentSession } from "@/server/auth/current";
import { HOME_FOR_ROLE } from "@/lib/types";

/** Where a page not open to the account's role sends it: what its role is, and who can change it. */
export default async function Forbidden() {
  const session = await currentSession();
  if (!session) redirect("/login");
  const { email, role } = session.account;
  const admins = await adminEmails();
  return (
    <main className="mx-auto max-w-md space-y-4 px-6 py-16">
      <h1 className="text-2xl font-semibold">Not for your role</h1>
      <p className="text-slate-600">
        Your account ({email}) is {role === "admin" ? "an" : "a"} <strong>{role}</strong>, and this page is
        not open to that role.
      </p>
      <p className="text-slate-600">
        {admins.length ? (
          <>
            An admin can change your role on the Keys &amp; accounts page:{" "}
            {admins.map((a, i) => (
              <span key={a}>
                {i > 0 && ", "}
                <a href={`mailto:${a}`} className="text-blue-700 underline">
                  {a}
                </a>
              </span>
            ))}
            .
          </>
        ) : (
          "An admin can change your role on the Keys & accounts page."
        )}
      </p>
      <Link href={HOME_FOR_ROLE[role] ?? "/map"} className="text-blue-700 underline">
        Back to the dashboard
      </Link>
    </main>
  );
}
