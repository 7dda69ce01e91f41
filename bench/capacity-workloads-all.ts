/** Every workload of the capacity model, in the order the table shows them. */

import { exportWorkload, surveyWorkloads, type Workload } from './capacity-workloads.ts';
import { voteWorkload } from './capacity-workloads-ideas.ts';
import { authenticationWorkloads, personWorkloads, searchWorkload, webhookWorkload } from './capacity-workloads-platform.ts';
import { workspaceBudgetWorkload } from './capacity-workloads-tenants.ts';
import { rateBudgetWorkload } from './capacity-workloads-webhooks.ts';

export const WORKLOADS: Workload[] = [
  ...surveyWorkloads,
  workspaceBudgetWorkload,
  ...authenticationWorkloads,
  searchWorkload,
  webhookWorkload,
  rateBudgetWorkload,
  voteWorkload,
  exportWorkload,
  ...personWorkloads,
];
