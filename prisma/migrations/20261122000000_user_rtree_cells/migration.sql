-- The user R*Tree holds the box of the grid cell (0.01° × 0.01°, about 1.1 km × 0.8 km at 45°)
-- that contains the user's last location, not the point itself. A location update rewrites
-- the R*Tree only when the user crosses into another cell: most updates move a few metres, and
-- an R*Tree update (a delete and a reinsert, touching several pages) was about a quarter of the
-- pages a tracked update wrote (docs/performance.md). Searches read candidates by cell and then
-- test each user's exact position.

DROP TRIGGER "User_rtree_insert";
DROP TRIGGER "User_rtree_update";

CREATE TRIGGER "User_rtree_insert" AFTER INSERT ON "User" BEGIN
    INSERT INTO "UserRTree" ("seq", "minLng", "maxLng", "minLat", "maxLat")
    VALUES (
        NEW."seq",
        floor(NEW."longitude" * 100) / 100.0, (floor(NEW."longitude" * 100) + 1) / 100.0,
        floor(NEW."latitude" * 100) / 100.0, (floor(NEW."latitude" * 100) + 1) / 100.0
    );
END;

CREATE TRIGGER "User_rtree_update" AFTER UPDATE OF "latitude", "longitude" ON "User"
WHEN floor(NEW."longitude" * 100) <> floor(OLD."longitude" * 100)
  OR floor(NEW."latitude" * 100) <> floor(OLD."latitude" * 100)
BEGIN
    UPDATE "UserRTree"
    SET "minLng" = floor(NEW."longitude" * 100) / 100.0, "maxLng" = (floor(NEW."longitude" * 100) + 1) / 100.0,
        "minLat" = floor(NEW."latitude" * 100) / 100.0, "maxLat" = (floor(NEW."latitude" * 100) + 1) / 100.0
    WHERE "seq" = NEW."seq";
END;

DELETE FROM "UserRTree";
INSERT INTO "UserRTree" ("seq", "minLng", "maxLng", "minLat", "maxLat")
SELECT "seq",
       floor("longitude" * 100) / 100.0, (floor("longitude" * 100) + 1) / 100.0,
       floor("latitude" * 100) / 100.0, (floor("latitude" * 100) + 1) / 100.0
FROM "User";
