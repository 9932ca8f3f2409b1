// frontend/portal -> the MCP clients (coding agents) the person let act for them at the identity
// provider, each revocable: the client loses its tokens and cannot refresh them.
import { useState } from 'preact/hooks';
import { call, get } from '../../../app-kit/api';
import {
  ConfirmButton,
  errorText,
  Loading,
  Notice,
  Paged,
  TableRegion,
  Title,
  useLoaded,
  when,
} from '../../../app-kit/components';
import type { ConnectedClientJson, ListOf } from '../types';

export const McpClientsPage = () => {
  const { value, error, reload } = useLoaded(
    () => get<ListOf<ConnectedClientJson>>('/api/mcp-clients'),
    'mcp-clients',
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  return (
    <>
      <Title>Connected MCP clients</Title>
      <p>Coding agents you allowed to use the service's MCP server for you.</p>
      <Notice error={error ?? problem} status={status} />
      {value === null ? (
        !error && <Loading what="connected clients" />
      ) : value.data.length === 0 ? (
        <p class="empty">
          No MCP client is connected. Add the MCP server's address to your coding agent; it will ask you to
          sign in and allow it.
        </p>
      ) : (
        <Paged items={value.data} label="Connected clients">
          {(page) => (
            <TableRegion label="Connected clients">
              <table>
                <caption>Clients that may act for you</caption>
                <thead>
                  <tr>
                    <th scope="col">Client</th>
                    <th scope="col">Allowed</th>
                    <th scope="col">Action</th>
                  </tr>
                </thead>
                <tbody>
                  {page.map((client) => (
                    <tr key={client.id}>
                      <td>
                        {client.client_name ?? '(no name)'}
                        <br />
                        <code class="hint">{client.client_id}</code>
                      </td>
                      <td>{when(client.granted_at)}</td>
                      <td>
                        <ConfirmButton
                          label="Revoke"
                          question={`Revoke ${client.client_name ?? client.client_id}? It will have to ask you again.`}
                          confirmLabel="Revoke access"
                          onConfirm={async () => {
                            try {
                              await call('DELETE', `/api/mcp-clients/${client.id}`);
                              setStatus(
                                `${client.client_name ?? client.client_id} can no longer act for you.`,
                              );
                              reload();
                            } catch (failed) {
                              setProblem(errorText(failed));
                            }
                          }}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )}
        </Paged>
      )}
    </>
  );
};
