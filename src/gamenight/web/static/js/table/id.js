// @ts-check
// The table this page shows: /table/{id}.

export const tableId = decodeURIComponent(location.pathname.split("/")[2] || "");
