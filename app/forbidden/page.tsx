import Link from "next/link";

export default function Forbidden() {
  return (
    <main className="mx-auto max-w-md space-y-4 px-6 py-16">
      <h1 className="text-2xl font-semibold">Not for your role</h1>
      <p className="text-slate-600">
        Your account&apos;s role does not include this page. An admin can change what your account may do.
      </p>
      <Link href="/map" className="text-blue-700 underline">
        Back to the dashboard
      </Link>
    </main>
  );
}
