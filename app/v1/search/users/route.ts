import { handler, reply, otherMethods } from "@/server/http/handler";
import { searchUsers } from "@/server/users/read";
import { searchUsersSchema } from "@/server/users/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

export const GET = handler(
  { access: "secret", permission: "users:list", query: searchUsersSchema },
  async ({ key, query }) => reply({ users: await searchUsers(key, query) }),
);
