import { prismaStores } from "../prisma";

/**
 * The stores Prisma serves alike on both engines (../prisma/, one file per aggregate): writes run as they come
 * (the database orders them: no process-wide lock).
 */
export const shared = prismaStores((fn) => Promise.resolve().then(fn));
