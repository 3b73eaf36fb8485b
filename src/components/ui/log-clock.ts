/** A log line's time of day, 24-hour with seconds (revision logs and runtime logs alike). */
export const logClock = new Intl.DateTimeFormat("en", {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});
