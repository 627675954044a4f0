import { handler, reply, otherMethods } from "@/server/http/handler";
import { deleteUser } from "@/server/users/delete";
import { findUser, withGeofences } from "@/server/users/read";

export { OPTIONS } from "@/server/http/handler";
export const { POST, PUT, PATCH } = otherMethods("GET", "DELETE");

type Params = { id: string };

/** `{id}` is the user's `_id`, `userId` or `deviceId`. */
export const GET = handler<Params>("secret", async ({ key, params }) => {
  const [user] = await withGeofences([await findUser(key, params.id)]);
  return reply({ user });
});

export const DELETE = handler<Params>("secret", async ({ key, params }) => {
  await deleteUser(key, params.id);
  return reply({});
});
