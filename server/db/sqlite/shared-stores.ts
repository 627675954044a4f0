import { prismaStores } from "../prisma";
import { withWriteLock } from "../write-lock";

/** The stores Prisma serves alike on both engines (../prisma/, one file per aggregate), under this process's write lock. */
export const shared = prismaStores(withWriteLock);
