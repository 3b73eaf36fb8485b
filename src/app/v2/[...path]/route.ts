import { unknownRoute } from "@/server/rest/not-found";

export {
  unknownRoute as GET,
  unknownRoute as POST,
  unknownRoute as PATCH,
  unknownRoute as PUT,
  unknownRoute as DELETE,
};
