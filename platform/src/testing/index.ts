export { createTestDatabase, type TestDatabase } from './database';
export { startNatsServer, type TestNatsServer } from './nats';
export { groupMembers, spawnGroup, stopGroup } from './processes';
