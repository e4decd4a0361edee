// @kerf/store/testing: a MongoDB wire-protocol stand-in (the real driver talks to it), for tests of
// other packages that run the service on the MongoDB store without a MongoDB server.
export { startMongoWireFake } from './mongoWireFake.ts';
