/** REST answers about instances (server/src/modules/instances); the response DTOs implement these. */

/** What anyone may know about the instance a host serves: enough to brand the page. */
export interface CurrentInstanceResponse {
  code: string;
  name: string;
  /** Hex colour without '#'. */
  color: string;
  accent: string;
  logoUrl: string | null;
}

/** An instance as its members and global users see it, including its custom CSS and host names. */
export interface InstanceResponse extends CurrentInstanceResponse {
  customCss: string;
  hosts: string[];
  isDefault: boolean;
  updatedAt: string;
}
