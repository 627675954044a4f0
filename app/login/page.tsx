import type { Metadata } from "next";
import { SignInForm } from "@/components/dashboard/sign-in-form";

export const metadata: Metadata = { title: "Sign in · Location platform" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  // Only paths on this site: never send people elsewhere after signing in.
  // Without one, the account's role decides (lib/types.ts HOME_FOR_ROLE).
  const target = next?.startsWith("/") && !next.startsWith("//") ? next : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm space-y-6 rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold">Sign in</h1>
          <p className="text-sm text-slate-600">
            The first start printed the admin&apos;s email and password. Lost it?{" "}
            <code className="text-xs">npm run accounts -- reset-password EMAIL</code>
          </p>
        </div>
        <SignInForm next={target} />
      </div>
    </main>
  );
}
