// apimachinery's meta/v1 types (and the scalar types every group references).
import type { Definitions } from '../../schema.js';
import { discoveryDefinitions } from './discovery.js';
import { objectDefinitions } from './object.js';
import { scalarDefinitions } from './scalars.js';
import { statusDefinitions } from './status.js';

export const definitions: Definitions = {
  ...scalarDefinitions,
  ...objectDefinitions,
  ...statusDefinitions,
  ...discoveryDefinitions,
};
