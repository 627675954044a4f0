import { handler, reply, otherMethods } from "@/server/http/handler";
import { listUsers } from "@/server/users/read";
import { listUsersSchema } from "@/server/users/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

export const GET = handler(
  { access: "secret", permission: "users:list", query: listUsersSchema },
  async ({ key, query }) => {
    const { users, hasMore } = await listUsers(key, query);
    return reply({ users }, hasMore);
  },
);
