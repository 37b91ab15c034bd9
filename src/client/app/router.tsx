import { createBrowserRouter, redirect } from 'react-router';
import { pageRoutes } from '../../shared/api';
import { NotFound } from '../components/not-found';
import { Layout } from './layout';
import { RequireSession } from './require-session';
import { RouteError } from './route-error';

// Each page is loaded on demand, so each is its own chunk.
export const router = createBrowserRouter([
  {
    path: '/',
    Component: Layout,
    HydrateFallback: () => null,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, loader: () => redirect(pageRoutes.home) },
          {
            path: pageRoutes.signupLogin,
            lazy: async () => ({ Component: (await import('../features/auth/signup-login-page')).SignupLoginPage }),
          },
          {
            Component: RequireSession,
            children: [
              {
                path: pageRoutes.home,
                lazy: async () => ({ Component: (await import('../features/catalog/home-page')).HomePage }),
              },
              {
                path: pageRoutes.cart,
                lazy: async () => ({ Component: (await import('../features/cart/cart-page')).CartPage }),
              },
              {
                path: pageRoutes.manageAccount,
                lazy: async () => ({
                  Component: (await import('../features/account/manage-account-page')).ManageAccountPage,
                }),
              },
            ],
          },
          { path: '*', Component: NotFound },
        ],
      },
    ],
  },
]);
