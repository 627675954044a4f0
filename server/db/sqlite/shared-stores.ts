import { prismaStores } from "../prisma-stores";
import { withWriteLock } from "../write-lock";

/** The stores Prisma serves alike on both engines (../prisma-stores.ts), under this process's write lock. */
export const shared = prismaStores(withWriteLock);
