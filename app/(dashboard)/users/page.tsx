import type { Metadata } from "next";
import { UsersTable } from "@/components/users/users-table";
import { requireSession } from "@/server/auth/current";

export const metadata: Metadata = { title: "Users · Location platform" };

export default async function UsersPage() {
  await requireSession("users:list");
  return <UsersTable />;
}
