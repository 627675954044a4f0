import { handler, reply, otherMethods } from "@/server/http/handler";
import { parseQuery } from "@/server/http/request";
import { searchUsers } from "@/server/users/read";
import { searchUsersSchema } from "@/server/users/schema";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH, DELETE } = otherMethods("GET");

export const GET = handler("secret", async ({ req, key }) => {
  return reply({ users: await searchUsers(key, parseQuery(req, searchUsersSchema)) });
});
