import { handler, reply, otherMethods } from "@/server/http/handler";
import { deleteUser } from "@/server/users/delete";
import { findUser, wireUsers } from "@/server/users/read";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");

/** `{id}` is the user's `_id`, `userId` or `deviceId`. */
export const GET = handler(
  { params: ["id"], access: "secret", permission: "users:read" },
  async ({ key, params }) => {
    const [user] = await wireUsers([await findUser(key, params.id)]);
    return reply({ user });
  },
);

export const DELETE = handler(
  { params: ["id"], access: "secret", permission: "users:write" },
  async ({ key, params }) => {
    await deleteUser(key, params.id);
    return reply({});
  },
);
