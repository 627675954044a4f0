import { prismaStores } from "../prisma-stores";

/**
 * The stores Prisma serves alike on both engines (../prisma-stores.ts): writes run as they come
 * (the database orders them: no process-wide lock).
 */
export const shared = prismaStores((fn) => Promise.resolve().then(fn));
