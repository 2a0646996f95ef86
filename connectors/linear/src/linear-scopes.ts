/** Linear's OAuth scope for reading everything the user can see; always granted. */
export const read = 'read';
/** Linear's OAuth scope for changing data as the user; includes creating issues and comments. */
export const write = 'write';
/** Linear's narrower scope that allows creating issues (and their attachments) only. */
export const issuesCreate = 'issues:create';
/** Linear's narrower scope that allows creating comments only. */
export const commentsCreate = 'comments:create';

/** Every scope the Linear connector declares, in the manifest's order. */
export const linearScopes = [read, write, issuesCreate, commentsCreate] as const;
