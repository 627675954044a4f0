-- Failed sign-ins are counted in the database, not in one process's memory: every app process
-- behind a balancer sees the same counts (server/auth/throttle.ts).

-- CreateTable
CREATE TABLE "SignInFailure" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "key" TEXT NOT NULL,
    "at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "SignInFailure_key_at_idx" ON "SignInFailure"("key", "at");
