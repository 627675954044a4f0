import { handler, reply, otherMethods } from "@/server/http/handler";
import { parseQuery } from "@/server/http/request";
import { listUsers } from "@/server/users/read";
import { listUsersSchema } from "@/server/users/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

export const GET = handler("secret", async ({ req, key }) => {
  const { users, hasMore } = await listUsers(key, parseQuery(req, listUsersSchema));
  return reply({ users }, hasMore);
});
