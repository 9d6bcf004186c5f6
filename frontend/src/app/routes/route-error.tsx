import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;

  return (
    <section className="message-page" role="alert">
      <h1>{notFound ? 'Page not found' : 'Something went wrong'}</h1>
      <p>{notFound ? 'There is nothing at this address.' : 'Please reload the page or try again later.'}</p>
      <Link className="button" to="/" reloadDocument>
        Back to the videos
      </Link>
    </section>
  );
}
