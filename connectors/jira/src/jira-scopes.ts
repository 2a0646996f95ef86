/** Atlassian's classic scope for reading projects, issues, comments and search. */
export const readWork = 'read:jira-work';
/** Atlassian's classic scope for creating and editing issues, comments and transitions. */
export const writeWork = 'write:jira-work';
/** Atlassian's classic scope for reading user profiles, including `GET /myself`. */
export const readUser = 'read:jira-user';

/** Every scope the Jira connector declares, in the manifest's order. */
export const jiraScopes = [readWork, writeWork, readUser] as const;
