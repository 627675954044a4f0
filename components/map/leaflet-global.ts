import L from "leaflet";

// Leaflet plugins (geoman, markercluster) extend the global `L`: it must exist before they load,
// so this module is imported ahead of them.
(window as unknown as { L: typeof L }).L = L;

export default L;
